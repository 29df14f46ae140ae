## Refusals of the hosting core and the Discord side (error codes are these ids).

## Fixed replies (bot/ui/errors.py).
error-save-failed = That couldn't be saved just now, so nothing changed. Please try again in a moment.
error-cooldown = Slow down a little: try again in { NUMBER($seconds, maximumFractionDigits: 0) } s.
error-no-permission = You don't have permission to do that here.
error-bot-forbidden = I'm missing a permission in this channel (I need to send messages, embed links and attach files).
error-internal = Something went wrong on our side. It has been logged; please try again.

## Lobby (bot/tables/lobby.py). $title: a game's title; $id, $other: game numbers.
error-table-busy = A game of { $title } is already running here (game #{ $id }).
error-bad-options = Those table options don't work: { $problems }.
error-practice-own = { $banner } Open your own with the game's `learn`.
error-already-seated = You already have a seat at this table.
error-table-full = The table is full ({ $seats } seats{ $kept ->
        [yes] {" "}(some are kept for the players invited to the rematch)
       *[no] {""}
    }). Ask the host to remove an AI player.
error-table-full-short = The table is full ({ $seats } seats).
error-no-ai-level = There is no AI level { $level }: choose easy, normal or hard.
error-no-ai-to-remove = There is no AI player to remove.
error-too-few-players = { $title } needs at least { $min } players: { $missing } more must Join{ $absent ->
        [yes] {" "}(waiting for { $waiting })
       *[no] {""}
    }, or press Add AI.
error-left-already = You already left this table: an AI plays your seat.
error-no-seat = You don't have a seat at this table.
error-not-started-join = The game hasn't started yet: press Join to take a seat.
error-already-playing = You're already playing your seat at this table.
error-nothing-to-take-back = There is no seat of yours to take back at this table: only a person who left a game can take their own seat back (not one the host removed).
error-target-not-seated = That person has no seat at this table.
error-kick-self = Use Leave to give up your own seat.
error-already-started = The game has already started.
error-host-only = Only the host or someone with Manage Server can { $what ->
        [cancel] cancel the game
        [kick] remove a player
        [add-ai] add AI players
        [remove-ai] remove AI players
       *[start] start the game
    }.

## Play (bot/tables/manager.py).
error-table-gone = That game has ended or no longer exists.
error-not-started = The game hasn't started yet.
error-not-started-view = The game hasn't started yet: your view appears once it does.
error-not-playing-moves = You're not playing at this table, so you can't make moves here.
error-not-playing-hand = You're not playing at this table, so there is no hand to show.
error-not-playing-hint = You're not playing at this table, so there is no hint for you.
error-not-your-move = It's not your move: waiting for { $waiting }.
error-stale-controls = Those controls are out of date: use the ones on the table now.
error-hints-off = Hints are off at this table: the host chooses them when opening it (`/{ $game } start hints:True`).
error-hint-not-your-move = Hints are for your own move, and it's not your move now.
error-moved-on = The table moved on while you chose: look at it again and make your move.
error-left-game = You left this game, so an AI plays your seat. To play it again: press **Take my seat back** on the table or use `/{ $game } rejoin`.

## Rematches (bot/tables/rematch.py).
error-game-gone = That game no longer exists.
error-rematch-unfinished = Only a finished game can be played again.
error-rematch-practice = That was a practice game: start a real one with `/{ $game } start`, or practise again with `/{ $game } learn`.
error-rematch-players-only = Only the players of game #{ $id } can ask for its rematch. Start a table of your own with `/{ $game } start`.
error-rematch-busy = A game of { $title } is already running here (game #{ $id }): the rematch can start once it is over.
error-rematch-done = Game #{ $id } had its rematch already (game #{ $other }): press Rematch on that one to play again.

## Moves asked for in a text prompt (bot/ui/modals.py).
error-not-your-move-short = It's not your move.
error-move-not-now = That move can't be made now.

## Confirmations and controls (bot/tables/confirm.py, bot/ui/router.py).
error-unknown-control = That control isn't one I know.

## Replays (bot/tables/replay.py). $id: a game's number.
error-replay-changed = Game #{ $id } can't be replayed: its moves no longer lead to the same end (the game's rules have changed since it was played).
error-replay-not-here = There is no finished game #{ $id } on this server.
error-replay-unknown-game = Game #{ $id } is of a kind this bot no longer hosts.
error-replay-in-play = Game #{ $id } is still being played: its hands are shown, and it can be replayed, once it is over.
error-replay-cancelled = Game #{ $id } was cancelled, so there is nothing to replay.
error-replay-too-old = Game #{ $id } was played too long ago: its moves are no longer kept (old games keep only their results), so it can't be replayed or its hands shown.

## Slash commands on a table (bot/cogs/common.py). $where: a link to the table message.
error-no-game-here = There is no game of { $title } in this channel. Start one with /{ $game } start.
error-not-in-server = Games are played in server channels, not in direct messages.
error-channel-busy = A game of { $title } is already running in this channel: { $where }. { $otherwise ->
        [practice] Practise in another channel, or once it is over.
       *[start] Finish or cancel it first, or start with thread:True.
    }
error-thread-needs-text-channel = A new thread can only be opened from a text channel.
