## Quantum Fingers (bot/engines/fingers, bot/games/fingers.py, bot/render/fingers.py).
## A flavour's name ($name, $flavour) is what a player typed (or the AI's stock name): it is
## shown as it is.

fingers-blurb = Go Fish with no cards: only fingers, and a history that must stay consistent.

## Events (the game log). $player is whoever the event is about; other seats come as names.

# $target: the player asked; $named: whether the asker names a new flavour with this ask.
fingers-ask = {$player} asks {$target} for {$name}{ $named ->
        [yes] {" "}(naming a new flavour)
       *[no] {""}
    }.
# $player answered no; $next: whose turn it is now.
fingers-no = {$player} has no {$name}{ $forced ->
        [yes] {" "}(forced: no consistent deal allows the other answer)
       *[no] {""}
    }. The turn passes to {$next}.
# $player answered yes and hands a finger to $asker.
fingers-yes = {$player} hands {$asker} a finger of {$name}{ $forced ->
        [yes] {" "}(forced: no consistent deal allows the other answer)
       *[no] {""}
    }.
fingers-keep = {$player} declares no book: they do not hold every {$name}.
# $fingers: the fingers put down (all of one flavour); $left: the fingers still held.
fingers-book = {$player} has a book of {$name}{ $forced ->
        [yes] {" "}(forced)
       *[no] {""}
    } and puts { $fingers ->
        [one] {$fingers} finger
       *[other] {$fingers} fingers
    } down; { $left ->
        [one] {$left} finger
       *[other] {$left} fingers
    } left.
fingers-win = It is {$player}'s turn and their hand is empty: {$player} wins!
# $reason: asks (the most asks a game allows, $asks, were made), repeat, stuck ($asker can
# ask nobody).
fingers-draw = The game is drawn: { $reason ->
        [asks] {$asks} asks have been made
        [repeat] the same position came round again
       *[stuck] {$asker} has nobody to ask
    }.

## Refusals (the engine's error codes).

fingers-error-not-over = The game is not over yet.
fingers-error-game-over = The game is over.
fingers-error-not-your-move = It is not your move.
# $move: what was sent (cut to 40 characters).
fingers-error-unknown-move = I don't know the move '{$move}'; use ask:<player>:<flavour>, new:<player>:<name>, yes, no, book or keep.
fingers-error-no-question = Nobody is waiting for your answer.
fingers-error-no-book = There is no book to decide on now.
# $phase: answer (someone must answer yes or no) or book (a book to declare or not).
fingers-error-cannot-ask-now = You can't ask now: { $phase ->
        [answer] answer yes or no
       *[book] declare a book or keep
    } first.
fingers-error-all-named = Every flavour has a name already: ask for one of them.
fingers-error-cannot-hold-unnamed = You can't hold any flavour that has no name yet: ask for a named one.
fingers-error-no-player = There is no player {$number}.
fingers-error-ask-yourself = Ask somebody else, not yourself.
fingers-error-empty-hand = That player holds no fingers, so you can't ask them.
fingers-error-flavour-unnamed = That flavour has no name yet: ask for a new flavour instead.
fingers-error-all-booked = The {$name} are all booked already.
fingers-error-cannot-hold = You can't ask for {$name}: no deal consistent with the game so far leaves you holding any. You may only ask for a flavour you could hold.
fingers-error-name-empty = Give the new flavour a name.
fingers-error-name-too-long = Flavour names are at most {$limit} characters; that one is {$length}.
# $characters: the refused characters, each in quotes ('@' '<').
fingers-error-name-characters = Flavour names can't contain {$characters}.
fingers-error-name-address = Flavour names can't be web addresses.
fingers-error-name-taken = There is already a flavour called '{$name}': ask for it by name instead.

## The table message and the private views.

fingers-nobody = nobody
# A flavour nobody has named yet, by its number.
fingers-flavour-number = flavour {$number}
fingers-turn-answer = **{$asker}** asked **{$asked}** for {$flavour}: both answers are still consistent, so {$asked} chooses (press **My hand**).
fingers-turn-book = **{$asker}** may hold every {$flavour}: they decide whether to declare a book (press **My hand**).
# $ask: the number of this ask; $most: the asks a game may last.
fingers-turn-ask = **{$asker}** to ask (press **My hand**) · ask {$ask} of at most {$most}
fingers-options = One flavour per player, {$fingers} fingers of each; everyone starts with {$fingers} fingers.

fingers-field-fingers = Your fingers
fingers-field-books = Your books
fingers-field-books-none = none
fingers-field-hand = What your hand may hold
# One line of what a hand may hold: a flavour and how many of it ("2", "1–3").
fingers-hand-line = {$flavour}: {$holding}
# The unnamed flavours share one line; $count: how many there are.
fingers-hand-unnamed = each unnamed flavour ({$count})
fingers-hand-nothing = nothing

fingers-panel-title = Your hand
# $waiting: the players to move.
fingers-panel-waiting = Waiting for **{$waiting}**. Everything is public: watch the table.
fingers-panel-ask-title = Your turn: ask someone
fingers-panel-ask = Pick whom to ask and for which flavour. You may only ask for a flavour you could still hold; a new flavour is named by you. A yes gives you another ask; a no passes the turn on.
fingers-panel-answer-title = {$asker} asks you for {$flavour}
fingers-panel-answer = Both answers fit some consistent deal, so it is your choice. **Yes** hands over one finger of {$flavour} and lets them ask again; **No** commits you to holding none and passes the turn on.
fingers-panel-book-title = A book of {$flavour}?
# $fingers: how many of each flavour there are.
fingers-panel-book = You may hold all {$fingers} {$flavour}, but you need not. **Declare** puts them down as a book; **Keep** commits you to not holding them all.

fingers-control-yes = Yes, hand over {$flavour}
fingers-control-no = No, I have none
fingers-control-book = Declare the book
fingers-control-keep = Keep them
fingers-control-ask = Ask {$target} for {$flavour}
fingers-control-ask-new = Ask {$target} for a new flavour (you name it)
# A menu of the asks of one player asked.
fingers-control-ask-menu = Ask {$target} for…
# The asks in several menus when there are too many players for one menu each.
fingers-control-ask-someone = Ask someone…
fingers-control-ask-page = Ask someone… ({$page}/{$pages})
fingers-control-answer-yes = Answer yes
fingers-control-answer-no = Answer no

fingers-modal-title = Name a new flavour
fingers-modal-label = Flavour name
fingers-modal-placeholder = juniper berries

## Hints (what the hard AI would do, and why).

# What a move comes to under careful play.
fingers-hint-outcome = { $outcome ->
        [win] a win
        [loss] a loss
        [open] no result in sight
       *[none] not weighed
    }
# A compared move that also keeps the turn.
fingers-hint-keeps-turn = {$outcome}, you keep the turn
# How the player asked has to answer the suggested ask: yes, choice or no.
fingers-hint-answer = { $answer ->
        [yes] They have to say yes, so you keep the turn.
        [no] They have to say no, so the turn passes on.
       *[choice] They may answer either way.
    }
fingers-hint-forced = That starts a forced win: whatever anyone answers, you can empty your hand on this turn.
fingers-hint-rule = There was no time to look ahead: this is a careful player's move.
# $deep: whether the search looked several of the player's moves ahead ($depth of them);
# $outcome: win, loss or open.
fingers-hint-ahead = { $deep ->
        [yes] Looking {$depth} of your moves ahead
       *[no] Playing the game out
    } with everyone else playing carefully, { $outcome ->
        [win] this leads to your win.
        [loss] every move loses in the end; this one holds out the longest.
       *[open] no move forces a result yet.
    }
fingers-hint-open = It also leaves the most about every hand undetermined, so nobody can plan a forced win against you yet.

## The table picture.

fingers-picture-title = Quantum Fingers
fingers-picture-won = {$player} wins with an empty hand!
fingers-picture-draw = A draw: nobody emptied their hand.
fingers-picture-answer = {$asker} asks {$asked} for {$flavour}: yes or no?
fingers-picture-book = {$asker} may declare a book of {$flavour}
fingers-picture-ask = {$asker} to ask
fingers-picture-asks = ask {$asks} of at most {$most} · {$fingers} of each flavour
fingers-picture-player = PLAYER
fingers-picture-fingers = FINGERS
fingers-picture-books = BOOKS
# A booked flavour in the row of the player who booked it.
fingers-picture-booked = book
# The column heading shared by the flavours nobody has named yet.
fingers-picture-unnamed = unnamed ×{$count}
