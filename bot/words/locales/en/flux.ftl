## Flux (bot/engines/flux, bot/games/flux.py, bot/games/flux_scores.py, bot/render/flux.py,
## bot/cogs/flux.py). Cards come as their labels ("9♥", several joined by spaces); seats as
## names ($player is whoever the event is about); points, targets and values as numbers.

flux-blurb = Three decks, a dice target: get your hand's value there, then win the poker.
# The hand a revealed table is in (the replay's heading).
flux-deal-name = hand {$hand}

## Events (the game log).

# $cuts: every seat's cut card, from flux-cut-card, joined with commas.
flux-cut = Cut for the deal: {$cuts}. {$player} deals first.
flux-cut-card = {$name} {$card}
flux-play_on = {$player} plays on.
# $what: claim (an original hand or not), dice (the use of point dice) or poker (the five).
flux-chose = { $what ->
        [claim] {$player} has decided.
        [dice] {$player} has chosen.
       *[poker] {$player} has chosen a poker hand.
    }
# $count: how many claimed; $claimants: their names.
flux-claims = { $count ->
        [0] Nobody claims an original hand.
       *[other] Original hand claimed by {$claimants} (at the target {$target}).
    }
flux-claim_tie = On colour totals and face cards {$alive} stay in the claim.
flux-claim_out = Too few cards are left to deal every claimant a tie-break card: the claim goes to {$player}, the first of them from the dealer's left.
# $cards: each claimant's tie-break card, from flux-cut-card, joined with commas.
flux-claim_draw = Claim tie-break cards: {$cards}.
flux-original = {$player} wins the value game with an original hand: +{$points}.
flux-max_tricks = All { $tricks ->
        [one] {$tricks} trick
       *[other] {$tricks} tricks
    } of this hand are played: it is settled.
flux-play = {$player} plays {$card}.
flux-dead_trick = Every card cancels: a dead trick. {$player} leads again.
flux-trick = {$player} wins the trick with {$card}{ $points ->
        [0] {""}
       *[other] {" "}(+{$points})
    } and takes command.
# $dice: the target dice ("4 + 2 + 6").
flux-target = {$player} re-rolls the target: {$dice} = {$target}.
flux-discard_die = {$player} rolls the discard die: {$roll}.
flux-flux = FLUX! {$player} throws in {$cards}{ $points ->
        [0] {""}
       *[other] {" "}(+{$points})
    } and is dealt seven new cards.
flux-discard = { $count ->
        [0] {$player} keeps the hand.
       *[other] {$player} discards {$cards} and is dealt {$count} new.
    }
flux-call = {$player} calls!
# $dice: the dice got ("3, 5").
flux-point_dice = {$player} gets point dice {$dice}.
flux-ran_out = The cards have run out: the hand is settled at once.
# $hands: each hand's value, from flux-shown-value, joined with "; "; $holders: who holds point dice.
flux-dice_phase = Hands are shown (target {$target}): {$hands}. {$holders} now choose how to use their point dice.
# $count: how many point dice; $dice: their values ("3, 5").
flux-shown-value = { $count ->
        [0] {$name} {$value}
       *[other] {$name} {$value} (dice {$dice})
    }
# $ways: each holder's use, from flux-dice-used-seat, joined with "; ".
flux-dice_used = Point dice: {$ways}.
flux-dice-used-seat = {$name}: {$way} → {$value}
# How point dice make a change of value. $amount: what they add or take off ("+5" for in-all;
# "+2 +3 -1" for steps); $count: how many dice (ignore).
flux-dice-way = { $way ->
        [ignore] { $count ->
            [one] ignore the die
           *[other] ignore the dice
        }
        [add] add {$amount}
        [subtract] subtract {$amount}
        [add-all] add all ({$amount})
        [subtract-all] subtract all ({$amount})
        [in-all] {$amount} in all
       *[steps] {$amount}
    }
# $values: each hand, from flux-showdown-seat, joined with "; ".
flux-showdown = Hands (target {$target}): {$values}.
flux-showdown-seat = {$name} {$value} ({$distance} off)
# $gains: each winner's points, from flux-settle-gain, joined with commas; $notes: from
# flux-note-*, joined with commas ($has_notes says whether there are any).
flux-settle = Value game: {$gains}{ $has_notes ->
        [yes] {" "}({$notes})
       *[no] {""}
    }.
flux-settle-gain = {$name} +{$points}
flux-note-undercut = undercut!
flux-note-bullseye = bull's-eye +{$points}
flux-note-zilch = zilch: {$names}
# $hands: each seat's five, from flux-poker-seat, joined with "; ".
flux-poker = Poker: {$hands}. { $has_winner ->
        [yes] {$player} wins the poker game: +{$points}.
       *[no] Every poker hand is tied: nobody scores.
    }
flux-poker-seat = {$name} {$cards} ({$rank})
flux-eliminated = {$player} ends {$distance} from the target and is eliminated.
flux-ace_of_spades = Tie for last: {$player} draws the ace of spades.
# $reason: why the game ended (flux-end-*); $ending: draw, standing (Variant 22) or points.
flux-game_over = {$reason} { $ending ->
        [draw] The game is drawn: the top scores are tied.
        [standing] {$player} wins!
       *[points] {$player} wins with { $points ->
            [one] {$points} point
           *[other] {$points} points
        }!
    }
# $trumps: the turn-up's suit (S, H, D, C); $rolled: whether $roller rolled a new target
# (no: Variant 17 keeps one target all game); $dice: the target dice ("4 + 2 + 6").
flux-deal = Hand {$hand}: {$player} deals; the turn-up is {$turnup} ({ $trumps ->
        [S] spades
        [H] hearts
        [D] diamonds
       *[C] clubs
    } are trumps); { $rolled ->
        [yes] {$roller} rolls the target: {$dice} = {$target}
       *[no] the target stays {$target}
    }.

## Why the game ended.

flux-end-last-standing = One player is left standing.
flux-end-dealt = Every player has dealt { $deals ->
        [1] once
        [2] twice
       *[other] {$deals} times
    }.
flux-end-burned = The burned cards are reached.
flux-end-too-few = Too few cards are left to deal another hand.
flux-end-limit = Someone reached { $limit ->
        [one] {$limit} point
       *[other] {$limit} points
    }.

## Poker hands. $category: 0 high card … 10 flush house; $first, $second: rank names
## (flux-rank); $firsts, $seconds: the same in the plural (flux-ranks).

flux-poker-rank = { $category ->
        [0] {$title}, {$first}
        [2] {$title}, {$firsts} and {$seconds}
        [4] {$title}, {$first} high
        [5] {$title}, {$first} high
        [9] {$title}, {$first} high
        [6] {$title}, {$firsts} over {$seconds}
        [10] {$title}, {$firsts} over {$seconds}
       *[other] {$title}, {$firsts}
    }
flux-poker-title = { $category ->
        [0] High card
        [1] One pair
        [2] Two pair
        [3] Three of a kind
        [4] Straight
        [5] Flush
        [6] Full house
        [7] Four of a kind
        [8] Five of a kind
        [9] Straight flush
       *[10] Flush house
    }
# The same, starting in lower case (inside a sentence).
flux-poker-title-lower = { $category ->
        [0] high card
        [1] one pair
        [2] two pair
        [3] three of a kind
        [4] straight
        [5] flush
        [6] full house
        [7] four of a kind
        [8] five of a kind
        [9] straight flush
       *[10] flush house
    }
flux-rank = { $rank ->
        [2] two
        [3] three
        [4] four
        [5] five
        [6] six
        [7] seven
        [8] eight
        [9] nine
        [10] ten
        [11] jack
        [12] queen
        [13] king
       *[14] ace
    }
flux-ranks = { $rank ->
        [2] twos
        [3] threes
        [4] fours
        [5] fives
        [6] sixes
        [7] sevens
        [8] eights
        [9] nines
        [10] tens
        [11] jacks
        [12] queens
        [13] kings
       *[14] aces
    }

## Refusals of a move.

flux-error-unknown-move = I don't know the Flux move '{$move}'.
flux-error-game-over = The game is over.
flux-error-not-over = The game is not over yet.
flux-error-already-chosen = You have already made your choice; waiting for the others.
flux-error-not-your-turn = It is not your turn.
flux-error-not-now = You can't { $move ->
        [pick] pick cards
        [claim] claim an original hand
        [pass] pass
        [play] play a card
        [discard] discard
        [call] call
        [dice] use point dice
       *[show] show a poker hand
    } now.
flux-error-no-card = You have no card {$number}.
# $another: yes when the player holds one copy of the card but named it twice.
flux-error-not-held = You don't hold { $another ->
        [yes] another {$card}
       *[no] {$card}
    }.
flux-error-not-at-target = Your hand isn't at the target: it is worth {$value}, the target is {$target}.
# $exact: yes when the roll allows exactly $high cards; else $low to $high.
flux-error-discard-count = You must discard { $exact ->
        [yes] exactly { $high ->
            [one] {$high} card
           *[other] {$high} cards
        }
       *[no] {$low} to {$high} cards
    }, not {$count}.
# $dice: the player's point dice ("3, 5"); $change: the change asked for ("+4").
flux-error-dice-offset = Your dice ({$dice}) can't change your value by {$change}.
flux-error-poker-five = A poker hand is five cards; you picked {$count}.

## Table options that can't be played.

flux-config-few-decks-need-18 = Fewer than three decks is Variant 18 (Intense flux): add 18 to the variants.
flux-config-18-fewer-decks = Variant 18 plays with fewer decks: choose 1 or 2 decks.
flux-config-length-needs-15 = The number of deals and the score limit set how long Variant 15 (Reshuffling) lasts: add 15 to the variants.
flux-config-too-few-decks = { $decks ->
        [one] {$decks} deck is
       *[other] {$decks} decks are
    } too few for {$players} players: add a deck or play with fewer people.
flux-config-refused-23 = Variant 23 (gambling) is not offered here.
flux-config-unknown-variant = There is no Flux variant '{$variant}'. The variants are 1 to 22, 9a and 16d (see `/rules game:Flux`).
flux-config-requires-7 = Variant 7 adds a D10 to Variant 2's D20 target die, so it needs 2 as well.
flux-config-requires-9a = Variant 9a says how to use point dice, so it needs 9 (point dice) as well.
flux-config-requires-16d = Variant 16d rolls a discard die in Temporal flux, so it needs 16 as well.
flux-config-conflict-16-17 = Variants {$first} and {$second} can't be played together: 16 re-rolls the target whenever someone takes command, 17 keeps one target all game.
flux-config-conflict-10-20 = Variants {$first} and {$second} can't be played together: 10 pays a bull's-eye bonus for a hand on the target, 20 zilches that hand.
flux-config-conflict-10-21 = Variants {$first} and {$second} can't be played together: 10 rolls the bull's-eye bonus, 21 awards no bull's-eye bonus at all.
flux-config-conflict-5-21 = Variants {$first} and {$second} can't be played together: 5 gives the best poker hand a bonus point, 21 awards no bonuses at all.
flux-config-conflict-22-8 = Variants {$first} and {$second} can't be played together: 22 plays on until one player is left standing, 8 ends the game as soon as someone reaches 121.
flux-config-conflict-22-15 = Variants {$first} and {$second} can't be played together: 22 plays on until one player is left standing, 15 ends the game after a set number of deals or at a score.

## The variants: name, and .summary in a few words.

flux-variant-1 = Discard up to the roll
    .summary = discard any number up to the roll, even none
flux-variant-2 = Different dice
    .summary = a D20 sets the target and a D8 is the discard die
flux-variant-3 = Maximum tricks
    .summary = a D12 caps the tricks in a hand; then it is settled
flux-variant-4 = Valueless poker
    .summary = a jack, queen or king turned up makes poker worth 0
flux-variant-5 = Poker bonus point
    .summary = the poker winner scores 1 point more
flux-variant-6 = Zero for zilch
    .summary = a hand worth exactly 0 is zilched too
flux-variant-7 = Two value dice
    .summary = target is a D20 plus a D10 (0-9); needs 2
flux-variant-8 = Maximum score
    .summary = the game ends as soon as anyone has 121
flux-variant-9 = Point dice
    .summary = each trick won earns a D6 to add to or take off your value
flux-variant-9a = In totality
    .summary = all your point dice are used the same way; needs 9
flux-variant-10 = Variable bull's-eye
    .summary = a D10x10 sets the bull's-eye; no calling after a flux
flux-variant-11 = Bonus trick die
    .summary = a D4 picks a trick of every hand, a D6 its bonus die
flux-variant-12 = Truco count
    .summary = Spanish-style trick ranking; the turn-up names the Pelico
flux-variant-13 = Seven-card poker
    .summary = played as 14: your best five of seven, picked for you
flux-variant-14 = Best five
    .summary = your poker hand is your best five of seven, picked for you
flux-variant-15 = Reshuffling
    .summary = fresh shuffle every hand; ends after set deals or a score
flux-variant-16 = Temporal flux
    .summary = the commander re-rolls the target instead; 3 or 18 fluxes
flux-variant-16d = Temporal flux with a die
    .summary = 16, then the discard die too; needs 16
flux-variant-17 = Momentum flux
    .summary = one target for the whole game
flux-variant-18 = Intense flux
    .summary = fewer decks (2 unless set); the game also ends at 50
flux-variant-19 = Unbalanced flux
    .summary = black cards count as positive points too
flux-variant-20 = Anti-flux
    .summary = get as far from the target as you can; within 5 is zilch
flux-variant-21 = Iron Man flux
    .summary = no bonuses: only the winner's distance points
flux-variant-22 = Mafia flux
    .summary = the furthest player is out each hand; last one standing wins

## The table message and a player's own view (bot/games/flux.py).

flux-bold-name = **{$name}**
flux-nobody = nobody
flux-seat = Seat {$number}
# A hand's value and how far it is from the target. $gap: the distance; $negative: yes when a
# negative value counts against the target as -target; $has_dice: point dice changed the value
# of the cards ($raw) by $dice ("+3").
flux-value-text = {$value}, { $gap ->
        [0] right on
       *[other] {$gap} { $gap ->
            [one] point
           *[other] points
        } away from
    } { $negative ->
        [yes] -{$target} (the target counts with either sign)
       *[no] the target of {$target}
    }{ $has_dice ->
        [yes] ; cards {$raw}, point dice {$dice}
       *[no] {""}
    }
flux-status-target = Target **{$target}**
flux-status-trumps = trumps {$suit}
flux-status-cards = { $count ->
        [one] {$count} card
       *[other] {$count} cards
    } before the cut-off
flux-turn-claim = Original hands: a hand dealt right at the target may be claimed, in secret (**My hand**); the table plays on by itself for everyone else.
flux-turn-trick = {$player} plays to the trick (**My hand** to play).
# $exact: the commander must discard exactly $high cards (else up to $high).
flux-turn-command = {$player} has command: discard { $exact ->
        [yes] {$high}
       *[no] up to {$high}
    } or call.
flux-turn-flux = {$player} fluxed onto the target: call or play on.
flux-turn-dice = Every hand is shown. Point dice: {$players} choose how to use theirs, in secret (**My hand**).
flux-turn-poker = Poker: everyone picks five of their cards in secret (**My hand**).
flux-private-title = Your hand
flux-field-score = Your score
flux-field-hand = Your hand
flux-field-value = Hand value
flux-field-dice = Point dice
flux-field-turnup = Turn-up
flux-turnup = {$card} (trumps)
flux-waiting-others = Your choice is in; waiting for the others to choose.
flux-waiting-for = Waiting for **{$players}**.
flux-claim-nothing = Your hand is not at the target, so there is nothing to claim: the table plays on for you in a moment.
flux-claim-ask = Your hand is at the target ({$value}): claim it for the value game?
flux-your-trick = Your turn: play a card to the trick (you are dealt a new one at once).
flux-flux-ask = Your new hand is at the target ({$value}): call now for the flux bull's-eye?
# $value: the hand's value in words (flux-value-text).
flux-command-ask = You have command. Pick { $exact ->
        [yes] { $high ->
            [one] {$high} card
           *[other] {$high} cards
        }
       *[no] 0 to {$high} cards
    } to discard, or call now (your hand is worth {$value}).
flux-poker-ask = Poker: pick the five cards to show (your best five are picked already). Everyone's choice is revealed together.
flux-dice-ask = Every hand is shown. Yours is worth **{$value}**; choose how to use your point dice ({$dice}): add, subtract or ignore. Each choice shows the value it gives you. The others choose at the same time, in secret.
flux-dice-result = {$value} ({$distance} off{ $zilch ->
        [yes] , zilch!
       *[no] {""}
    })
flux-dice-menu = Use the dice
flux-dice-menu-placeholder = Make your value {$low} to {$high}…
flux-dice-option = Value {$result}
flux-button-claim = Claim original hand
flux-button-play-on = Play on
flux-button-call = Call
flux-button-call-at = Call at {$value}
flux-button-discard = { $count ->
        [0] Keep hand
       *[other] Discard {$count}
    }
flux-button-show = Show these five
flux-revealed-title = Every hand
flux-revealed-line = **{$name}**: {$held}
flux-revealed-out = out of the game
flux-revealed-hand = {$cards} (value {$value})
flux-revealed-none = no cards

## The table's options.

flux-options = {$variants}. { $decks ->
        [one] {$decks} deck
       *[other] {$decks} decks
    }.
flux-variant-key = {$key} {$name}
flux-variants-none = Basic game (no variants)
flux-ends-deals = after { $deals ->
        [one] {$deals} deal
       *[other] {$deals} deals
    } each
flux-ends-limit = at { $limit ->
        [one] {$limit} point
       *[other] {$limit} points
    }
# $ends: flux-ends-deals and/or flux-ends-limit joined with "or"; $count: how many.
flux-ends = The game ends {$ends}{ $count ->
        [one] {""}
       *[other] , whichever comes first
    }.

## Moves in words (reviews and hints).

flux-move-play = Play {$card}
flux-move-discard = { $count ->
        [0] Keep your hand
       *[other] Discard {$cards}
    }
flux-move-show = Show {$cards}
flux-move-claim = Claim your original hand

## Hints: what the hard AI would do, and why.

flux-hint-rule-claim = A hand at the target is worth claiming: the hard AI always does.
flux-hint-rule-flux = Your hand is at the target after the flux: the hard AI always calls for the bull's-eye.
flux-hint-rule-dice = Of every way to use your point dice, this one scores you the most against the hands shown (or costs you the least).
flux-hint-rule-poker = These are your best five cards for the poker game.
flux-hint-rule-only = It's the only move worth weighing here.
flux-hint-rule-no-deal = There was no time to play out a single deal: this is the hard AI's first choice before searching.
flux-hint-rule-pass = Your hand isn't at the target, so there's nothing to claim: play on.
# $sampled: how many deals were tried ("In 200 deals"); $percent: how often it wins.
flux-hint-win = {$sampled} of the cards you can't see, played out to the end of the hand, you win the game {$percent} of the time with it (the game is near its end, so it plays for the win).
flux-hint-figure-win = {$percent} to win the game
# $points: what it scores against the others' average ("+3.2 points").
flux-hint-points = {$sampled} of the cards you can't see, played out to the end of the hand, it scores you {$points} against the others' average, and you take the most points of the hand {$percent} of the time.
flux-hint-figure-points = {$points} · on top {$percent}

## The final screen's score sheet in words (bot/games/flux_scores.py). Names come in bold;
## $points with their sign ("+12").

flux-player = Player {$number}
flux-field-sources = Where the points came from
# $continued: yes for the fields after the first.
flux-field-hands = { $continued ->
        [yes] Hand by hand (continued)
       *[no] Hand by hand
    }
# One player's total and what made it; $why: the sources (flux-source-*) joined with commas.
flux-player-line = **{$name}**: { $score ->
        [one] {$score} point
       *[other] {$score} points
    } from {$why}
flux-source-tricks = { $count ->
        [one] {$count} trick
       *[other] {$count} tricks
    } won ({$points})
flux-source-fluxes = { $count ->
        [one] {$count} flux
       *[other] {$count} fluxes
    } ({$points})
flux-source-value = { $count ->
        [one] {$count} value game
       *[other] {$count} value games
    } ({$points})
flux-source-poker = { $count ->
        [one] {$count} poker game
       *[other] {$count} poker games
    } ({$points})
flux-source-earlier = earlier hands ({$points})
flux-source-nothing = nothing scored
# Where one player's points in one hand came from.
flux-hand-source-tricks = { $count ->
        [one] {$count} trick
       *[other] {$count} tricks
    }
flux-hand-source-fluxes = { $count ->
        [one] flux
       *[other] {$count} fluxes
    }
flux-hand-source-value = value game
flux-hand-source-poker = poker
flux-hand-gain = {$name} {$points} ({$sources})
# One hand: $story (flux-story-*-game joined with "; "), $gains (flux-hand-gain, commas).
flux-hand-line = **Hand {$hand}**{ $target ->
        [0] {""}
       *[other] {" "}(target {$target})
    }: { $has_story ->
        [yes] {$story}
       *[no] no value game
    }{ $has_gains ->
        [yes] . Points: {$gains}.
       *[no] . Nobody scored.
    }
flux-hands-left-out = { $count ->
        [one] Hand 1
       *[other] Hands 1 to {$count}
    }: see the score sheet in the picture.
flux-story-value-game = value game: {$story}
flux-story-poker-game = poker: {$story}
# How a value game was won. $how: original, settled (nobody called; $kind: settled after the
# last trick or ran-out), undercut, or called ($value: the caller's; $gap: its distance).
flux-story-value = { $how ->
        [original] {$caller} won with an original hand
        [settled] settled { $kind ->
            [settled] after the last trick
           *[other] when the cards ran out
        }: {$winners} won
        [undercut] {$caller} called at {$value} and was undercut by {$winners}
       *[called] {$caller} called at {$value}{ $bullseye ->
            [0] { $gap ->
                [0] , on the target
               *[other] , {$gap} { $gap ->
                    [one] point
                   *[other] points
                } off the target of {$target}
            }
           *[other] , on the target (bull's-eye +{$bullseye})
        }
    }
flux-story-zilch = ; zilch: {$names}
# $hand: the winning poker hand in words, in lower case.
flux-story-poker = {$winner} won with {$hand}
flux-story-poker-tied = every hand tied

## Words in the table's picture (bot/render/flux.py).

flux-pic-title = Flux
# $phase: claim, trick, command, flux, dice, poker or over.
flux-pic-phase = { $phase ->
        [claim] Original hand claims
        [trick] Trick
        [command] Command
        [flux] Flux: call or play on
        [dice] Point dice
        [poker] Poker showdown
       *[over] Game over
    }
# The header: $dealer is the dealer's name, $phase from flux-pic-phase.
flux-pic-header = Hand {$hand}  ·  {$dealer} deals  ·  {$phase}
flux-pic-variants = Variants: {$variants}  ·  { $decks ->
        [one] {$decks} deck
       *[other] {$decks} decks
    }
flux-pic-no-variants = none
flux-pic-turnup = TURN-UP
flux-pic-trumps = Trumps {$suit}
flux-pic-poker-worth = Poker worth {$points}
flux-pic-target = TARGET
flux-pic-discard-die = Discard die
flux-pic-tricks = tricks {$won}/{$most}
flux-pic-bonus-die = bonus die {$die} on trick {$trick}
flux-pic-bullseye = bull's-eye {$points}
flux-pic-trick = THE TRICK
flux-pic-command = {$name} has command
flux-pic-leads = {$name} leads
# $count: cards left above the cut-off; $used: cards used.
flux-pic-shoe = { $count ->
        [one] {$count} card
       *[other] {$count} cards
    } before the cut-off  ·  {$used} used
flux-pic-burned = BURNED
flux-pic-scores = SCORES
flux-pic-tag-dealer = dealer
flux-pic-tag-command = command
flux-pic-tag-chosen = chosen
flux-pic-eliminated = eliminated
flux-pic-dice = dice {$dice}
flux-pic-cards = { $count ->
        [one] {$count} card
       *[other] {$count} cards
    }
flux-pic-result = {$value} ({$distance} off)
flux-pic-drawn = The game is drawn
flux-pic-wins = {$name} wins with { $points ->
        [one] {$points} point
       *[other] {$points} points
    }!
flux-pic-sheet = SCORE SHEET
flux-pic-sheet-hand = Hand {$hand}
flux-pic-sheet-hands = Hands {$first}-{$last}
flux-pic-sheet-earlier = Earlier
flux-pic-sheet-total = Total
# $kind: tricks, fluxes, value or poker.
flux-pic-sheet-kind = { $kind ->
        [tricks] Tricks
        [fluxes] Fluxes
        [value] Value games
       *[poker] Poker
    }

## /flux start: completions of the variants option (bot/cogs/flux.py).

# $variants: the variants typed so far ("1,4").
flux-autocomplete-done = {$variants} (done)
# $chosen: the variants already typed, with a trailing comma ("1,4,"), or nothing.
flux-autocomplete-variant = {$chosen}{$key} · {$name}: {$summary}
