## Quantum dice (bot/engines/qdice, bot/games/qdice.py, bot/render/qdice.py).
## Points and scores come as numbers (grouped as the language writes them: 1,000); dice as
## their values ("1 5 5"); a die's colour as A (ivory) or B (blue).

# The game's name (the engine's title, for the table's words).
qdice-title = Quantum dice
qdice-blurb = Six dice in two colours: push your luck to 10,000.

# A die's colour as a letter (under the dice in the picture).
qdice-colour = { $colour ->
        [A] A
       *[B] B
    }
# A die as its button names it: value and colour letter ("4 · A").
qdice-die = {$value} · { $colour ->
        [A] A
       *[B] B
    }

## Scoring combinations, as a keep names them. $name: the combination; $value: the die
## value of a single, a triple or a Quantum.

qdice-combination = { $name ->
        [single] single {$value}
        [triple] three {$value}s
        [triple-colour] three {$value}s, one colour
        [small-straight] small straight
        [small-straight-colour] small straight, one colour
        [large-straight] large straight
        [large-straight-colour] large straight, colour sets
        [three-pairs] three pairs
        [three-pairs-split] three pairs, split colours
       *[quantum] Quantum (six {$value}s)
    }
# One combination of a keep with its points: "three 5s, one colour 600".
qdice-combination-points = {$combination} {$points}

## Events (the game log). $player is whoever the event is about.

# $dice: the values rolled ("1 1 1 2").
qdice-roll = {$player} rolled {$dice}.
# $dice: the values kept; $combinations: what they make, with points; $points: their points.
qdice-keep = {$player} kept {$dice} ({$combinations}) for {$points}; turn total {$turn_total}.
qdice-hot_dice = Hot dice! All six dice score; {$player} rolls six fresh dice with {$turn_total} riding.
# $lost: the turn total lost; $score: the banked score after.
qdice-black_hole = Black hole! Six 2s: {$player} loses this turn's {$lost} and falls back to {$score}.
qdice-bust = {$player} busted and loses this turn's {$lost}.
# $value: the value of all six dice; $points: what a Quantum is worth.
qdice-quantum = QUANTUM! {$player} rolled six {$value}s, worth {$points}.
# $got_on_board: this was the player's first bank.
qdice-bank = {$player} banked {$points} and has {$score}{ $got_on_board ->
        [yes] {" "}(on the board).
       *[no] .
    }
# $lead: first (the first to reach the target) or new ($player beat $displaced).
qdice-contingent = { $lead ->
        [new] {$player} beats {$displaced} with {$score} and is the new contingent winner; {$displaced} is out.
       *[first] {$player} reached {$score} and is the contingent winner: everyone else has one last turn to beat that score.
    }
# $to_beat: the leader's score the player did not beat.
qdice-out = {$player} could not beat {$to_beat} and is out.
qdice-game_over = {$player} wins with {$score}!

## Refusals (the engine's error codes).

qdice-error-not-over = The game is not over yet.
qdice-error-game-over = The game is over.
qdice-error-not-your-turn = It is not your turn.
# $move: what was sent.
qdice-error-unknown-move = I don't know the move '{$move}'; use t0-t5, roll, bank, roll:013 or bank:013.
qdice-error-same-die-twice = The move '{$move}' names the same die twice.
# $die: the die asked for; $last: the highest die number on the table.
qdice-error-no-die = There is no die {$die} on the table; the dice are numbered 0 to {$last}.
qdice-error-select-first = Select at least one scoring die to keep first.
# $why: the reasons (qdice-why-*), joined.
qdice-error-no-score = Those dice don't score: {$why}.
# $entry: the points needed in one turn; $total: what banking now would give.
qdice-error-entry = You need {$entry} points in one turn to get on the board; banking now would give {$total}. Keep rolling.

## Why a selection does not score: one sentence per reason, joined with "; ".

# $values: single dice of these values ("4 or 6").
qdice-why-single = a single {$values} scores only in three of a kind
qdice-why-left-out = the {$value} is left out of every combination
# $places: which dice of $value are left over ("fourth and fifth"), $count of them.
qdice-why-extra = three {$value}s make three of a kind, but the {$places} {$value} { $count ->
        [one] is
       *[other] are
    } left over ({$value}s score only three at a time)
# A die's place among dice of one value, in words.
qdice-nth = { $n ->
        [4] fourth
        [5] fifth
        [6] sixth
       *[other] next
    }
# $count dice of $value; $third: another die of that value is on the table.
qdice-why-pair = { $count ->
        [1] a single
        [2] two
        [3] three
        [4] four
        [5] five
       *[other] {$count}
    } {$value}s score only as three of a kind{ $third ->
        [yes] : keep a third {$value} too
       *[no] {""}
    }
# $combination: a combination of the whole roll; $count: the dice of the roll (3 or 6).
qdice-why-whole = { $combination ->
        [large-straight] a 1-6 straight scores
        [three-pairs] three pairs score
        [small-straight] a small straight scores
       *[quantum] a Quantum scores
    } only when you keep all { $count ->
        [3] three
       *[other] six
    } dice
qdice-why-run = a run like {$low}-{$middle}-{$high} is a small straight only when it is the whole of a three-dice roll
qdice-why-none = they are not a scoring combination

## The table message.

qdice-turn-to-play = **{$player}** to play
qdice-turn-total = turn total {$points}
qdice-turn-selection = selection scores {$points}
qdice-turn-no-score = selection does not score
qdice-turn-pick = pick the dice to keep, then Roll or Bank
# $leader: the contingent winner; $score: their score.
qdice-turn-last = last turns: beat {$leader}'s {$score}

# The Roll button: $dice left to roll (0: nothing picked yet).
qdice-control-roll = { $dice ->
        [0] Roll
        [one] Roll {$dice} die
       *[other] Roll {$dice} dice
    }
# The Bank button: the points banking would give.
qdice-control-bank = Bank {$points}

qdice-options = First to {$target}; {$entry} in one turn to get on the board.

## A seat's own panel.

qdice-panel-title = Your seat
qdice-panel-score = Your score
qdice-panel-place = Place
qdice-panel-bank-now = If you bank now
qdice-panel-to-win = To win
# $on_board: the seat has banked its first turn; else it needs $entry in one turn.
qdice-panel-score-value = {$score} ({ $on_board ->
        [yes] on the board
       *[no] needs {$entry} in one turn
    })
qdice-panel-your-turn = It's your turn: pick dice, Roll and Bank on the table.
qdice-panel-waiting = Waiting for **{$player}**.
qdice-panel-nobody = nobody
# $doing: qdice-panel-your-turn or qdice-panel-waiting.
qdice-panel-text = {$doing} Nothing in Quantum dice is secret: the dice, every score and the buttons are on the table for everyone. Here is what is yours.
# $place: the seat's place (1st); $tied: shared with someone; $players at the table;
# $where: behind (by $gap points), ahead (by $gap) or level.
qdice-panel-place-value = {$place}{ $tied ->
        [yes] =
       *[no] {""}
    } of {$players}{ $where ->
        [behind] , {$gap} behind the lead
        [ahead] , {$gap} ahead
       *[level] {""}
    }
qdice-panel-bank-gives = +{$points}, for a score of {$score}.
qdice-panel-bank-no-score = Nothing: the dice you picked don't all score.
qdice-panel-bank-entry = Nothing yet: your first bank needs {$entry} in one turn, and this turn has {$points}. Keep rolling.
qdice-panel-bank-nothing = Nothing yet: keep some scoring dice first.
# $need: the points to make this turn to beat $leader's $score.
qdice-panel-win-beat = Last turns: beat {$leader}'s {$score}, so {$need} more in this turn.
qdice-panel-win-lead = Last turns: you lead; the others must beat your score.
qdice-panel-win-left = {$left} more to reach {$target}.

## Hints (the hard AI's advice). $kept: the dice kept, as their buttons name them.

qdice-hint-bank = Keep {$kept} and bank {$points}
qdice-hint-roll = Keep {$kept} and roll { $dice ->
        [6] six fresh dice
        [one] {$dice} die
       *[other] {$dice} dice
    }
qdice-hint-figure-win = {$chance} to win the game
qdice-hint-figure-beat = {$chance} to beat {$leader}
qdice-hint-figure-points = about {$points} points this turn
# $then: what the other choice gives ($other) or why there is none.
qdice-hint-table = From the solved two-player odds, that gives you a {$chance} chance to win the game{ $then ->
        [bank] ; banking now would give {$other}.
        [roll] ; rolling on would give {$other}.
        [entry] ; you can't bank yet (you need {$entry} in one turn to get on the board).
       *[none] {"."}
    }
qdice-hint-end-bank = That takes you to {$total}: everyone else gets one last turn to beat it, and they all fall short {$chance} of the time{ $other ->
        [none] {"."}
       *[other] ; one more roll would make your chance {$other}.
    }
qdice-hint-end-roll = One more roll before banking gives you a {$chance} chance to win the game{ $other ->
        [none] {"."}
       *[other] ; banking now would give {$other}.
    }
qdice-hint-last-bank = That beats {$leader}'s {$score}: bank it.
qdice-hint-last-roll = This is your last turn: you need {$need} more to beat {$leader}'s {$score}, and keeping these dice gets you there {$chance} of the time.
# $average: what rolling on brings on average (none: not known).
qdice-hint-turn-bank = Banking {$total} now beats { $known ->
        [yes] what rolling on brings on average ({$average} points).
       *[no] anything rolling on brings on average.
    } (The solved odds cover two players with the standard options; here it plays for points.)
qdice-hint-turn-roll = Rolling on brings this turn to about {$average} points on average{ $known ->
        [yes] , more than banking {$bank} now.
       *[no] {"."}
    } (The solved odds cover two players with the standard options; here it plays for points.)
qdice-hint-no-time = There was no time to think it through: keep the most points, bank from 300.

## The picture.

qdice-picture-title = Quantum Dice
qdice-picture-on-table = ON THE TABLE
qdice-picture-selection = SELECTION
qdice-picture-turn-total = TURN TOTAL
qdice-picture-after-banking = AFTER BANKING
qdice-picture-kept = KEPT THIS TURN
qdice-picture-scores = SCORES
qdice-picture-header = Target {$target}   ·   Entry {$entry}
# {names} (kept as it is) is where the picture puts the winner's name.
qdice-picture-won = {"{names}"} wins with {$score} points!
qdice-picture-final-round = FINAL ROUND
qdice-picture-leads = {$player} leads with {$score}
qdice-picture-last-turn = {$player}'s last turn
qdice-picture-waiting = Waiting for the game to start
qdice-picture-to-play = to play
qdice-picture-six-rolled = six dice rolled
qdice-picture-game-over = Game over
qdice-picture-no-dice = No dice on the table
qdice-picture-no-score = doesn't score
qdice-picture-need = need {$entry}
qdice-picture-nothing-kept = nothing yet
qdice-picture-done = done
qdice-picture-on-board = on board
qdice-picture-not-on-board = not on board yet
