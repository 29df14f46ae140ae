## Flume (bot/engines/flume, bot/games/flume.py, bot/render/flume.py).
## Cards come as $rank (A K Q J 10 9 … 2, or joker), $suit (S H D C; high or low for a
## joker) and $symbol (♠ ♥ ♦ ♣; empty for a joker): see flume-card-label and flume-card-name.

flume-blurb = Bid, name trumps and bring home high, low, the bowers, the jokers and game.
flume-title = Flume

## Cards and suits.

# A suit's name: $suit is S, H, D or C.
flume-suit-name = { $suit ->
        [S] spades
        [H] hearts
        [D] diamonds
       *[C] clubs
    }
# A suit on a button or in the panels: its symbol, then its name (♥ hearts).
flume-suit = {$symbol} { flume-suit-name }
# The rank as printed on a card's corner (the letters are the English ones: A K Q J).
flume-rank-label = { $rank ->
        [A] A
        [K] K
        [Q] Q
        [J] J
       *[other] {$rank}
    }
# A card on a button and in text: 10♥, A♠, High joker.
flume-card-label = { $rank ->
        [joker] { $suit ->
            [high] High joker
           *[low] Low joker
        }
       *[other] { flume-rank-label }{$symbol}
    }
# A card in words: ace of spades, 10 of hearts, the high joker.
flume-card-name = { $rank ->
        [joker] { $suit ->
            [high] the high joker
           *[low] the low joker
        }
        [A] ace of { flume-suit-name }
        [K] king of { flume-suit-name }
        [Q] queen of { flume-suit-name }
        [J] jack of { flume-suit-name }
       *[other] {$rank} of { flume-suit-name }
    }
# A card in words after "the" is said: the ace of spades, the high joker.
flume-card-the-name = { $rank ->
        [joker] { flume-card-name }
       *[other] the { flume-card-name }
    }
# The seven points of a hand: $point is high, low, right, left, joker_high, joker_low or game.
flume-point = { $point ->
        [high] High
        [low] Low
        [right] Right bower
        [left] Left bower
        [joker_high] High joker
        [joker_low] Low joker
       *[game] Game
    }
# A hand by its number, never grouped (hand 1200), as in every message with $hand (the replay's Show hands heading: "Hand 3, as it was dealt").
flume-deal = hand { NUMBER($hand, useGrouping: 0) }

## Events (the game log). $player is whoever the event is about.

flume-pass = {$player} passes.
flume-bid = {$player} bids {$bid}.
# Everyone passed: $player (the dealer) deals again.
flume-redeal = Everyone passed; {$player} deals again.
flume-bid_won = {$player} wins the bid at {$bid} and names trumps.
# $trump: the suit named (S H D C); $symbol its symbol.
flume-trump = {$player} names { $trump ->
        [S] spades
        [H] hearts
        [D] diamonds
       *[C] clubs
    } {$symbol} trumps.
# $count: the cards thrown away (and drawn).
flume-discard = { $count ->
        [0] {$player} keeps all six cards.
       *[other] {$player} discards {$count} and draws {$count}.
    }
flume-stock_empty = The stock is empty: no more discards.
flume-alone = {$player} plays alone.
# $name: the card called, in words (flume-card-the-name).
flume-call = {$player} calls {$name}: its holder is their partner.
# $label: the card played (flume-card-label).
flume-play = {$player} plays {$label}.
# $found: yes when the called card came out ($player, its holder, is $bidder's partner); no
# when nobody held it ($player, the bidder, played alone).
flume-partner = { $found ->
        [yes] The called card is out: {$player} is {$bidder}'s partner.
       *[no] Nobody held the called card: {$player} played alone.
    }
# $cards: the trick's cards in play order, joined.
flume-trick = {$player} takes the trick ({$cards}).
# $player: the bidder; $taken: the points taken, each flume-hand-award, joined by "; ";
# $points: how many points were in play.
flume-hand = Hand { NUMBER($hand, useGrouping: 0) }: {$player} { $made ->
        [yes] makes
       *[no] is set on
    } the bid of {$bid}. { $points ->
        [0] No points in play
       *[other] {$taken}
    }.
# One point of a hand and who took it: "High Ada".
flume-hand-award = { flume-point } {$player}
# $winners: the winners' names joined; $count: how many; $points: the winning score.
flume-game_over = {$winners} { $count ->
        [one] wins
       *[other] win
    } the game with { $points ->
        [one] {$points} point
       *[other] {$points} points
    }!

## Refusals (the engine's error codes).

flume-error-not-over = The game is not over yet.
flume-error-game-over = The game is over.
flume-error-not-your-turn = It is not your turn.
# $move: what was sent.
flume-error-unknown-move = I don't know the move '{$move}'; try pass, bid:4, trump:H, discard, call:AS, alone or play:TH.
# $phase: what the table is doing now (bid, trump, discard, call, play or over).
flume-error-not-open = That move is not open now: { $phase ->
        [bid] the bidding is on (bid 3 to 6 or pass).
        [trump] the bidder is naming trumps.
        [discard] players are discarding non-trumps.
        [call] the bidder is calling a partner.
        [play] the tricks are being played.
       *[over] the game is over.
    }
flume-error-bid-number = A bid is a number of points, like bid:4.
flume-error-bid-range = Bids go from {$low} to {$high} points.
# $bid: the bid to beat; $can_raise: no when it is already the highest bid.
flume-error-bid-higher = You must bid more than {$bid}{ $can_raise ->
        [yes] {" "}or pass.
       *[no] ; only pass is left.
    }
flume-error-trump-suit = Name trumps as trump:S, trump:H, trump:D or trump:C.
flume-error-discard-twice = That discard names the same card twice.
flume-error-discard-trump = { flume-card-label } is a trump: only non-trumps may go.
# $stock: the cards left in the stock.
flume-error-discard-stock = The stock holds only { $stock ->
        [one] {$stock} card
       *[other] {$stock} cards
    }, so you may discard at most {$stock}.
flume-error-not-held = You don't hold { flume-card-the-name }.
flume-error-not-in-deck = The { flume-card-name } is not in the Flume deck.
flume-error-call-own = You can't call a card from your own hand.
# $led: the suit to follow (S H D C), or trumps.
flume-error-follow-suit = You must follow suit: play one of your { $led ->
        [trumps] trumps
        [S] spades
        [H] hearts
        [D] diamonds
       *[C] clubs
    }.
# $card: what was typed.
flume-error-not-a-card = '{$card}' is not a card.

## The table message and the private view.

flume-nobody = nobody
# $player: who is to act (in bold).
flume-turn-bid = **{$player}** to bid or pass
flume-turn-high-bid = high bid {$bid} by {$bidder}
flume-turn-no-bid = no bid yet
flume-turn-trump = **{$player}** won the bid at {$bid} and names trumps
flume-turn-discard = **{$player}** to discard non-trumps
flume-turn-stock = { $count ->
        [one] {$count} card
       *[other] {$count} cards
    } in the stock
flume-turn-call = **{$player}** calls a partner by naming a card
flume-turn-play = **{$player}** to play
# $suit: flume-suit (♥ hearts).
flume-turn-trumps = trumps {$suit}, bid {$bid} by {$bidder}
flume-turn-dealer = dealer {$dealer}
# The turn line's parts joined by " · ", then the line below it.
flume-turn = {$parts}
    Open **My hand** to see your cards and make your move.

flume-panel-title = Your hand
flume-panel-over = The game is over.
flume-panel-waiting = Waiting for **{$player}**.
flume-field-cards = Your cards
flume-field-no-cards = (no cards)
flume-field-trumps = Trumps
flume-field-bid = Bid
flume-field-bid-value = {$bid} by {$bidder}
flume-field-score = Your score
flume-field-called = Called card
flume-field-discarded = You discarded
# What the called card ($label) means to the viewer: $status is holder (the viewer holds it),
# known ($partner is the partner), discarded (the viewer threw it away) or hidden.
flume-field-called-value = {$label}: { $status ->
        [holder] you hold it, so you are the bidder's secret partner.
        [known] {$partner} is the partner.
        [discarded] you discarded it, so the bidder plays alone.
       *[hidden] the partner is hidden until it is played.
    }

flume-move-bid-turn = Your turn to bid. { $bid ->
        [0] Nobody has bid yet.
       *[other] The bid stands at {$bid}.
    } {$open}
# What may be bid now, as the buttons offer it: $low to $high ($count bids in all).
flume-move-bids-open = { $count ->
        [0] Only pass is left.
        [1] Bid { $low ->
                [one] {$low} point
               *[other] {$low} points
            } or pass.
        [2] Bid {$low} or {$high} points, or pass.
       *[other] Bid {$low} to {$high} points or pass.
    }
flume-move-trump = You won the bid at {$bid}: name trumps.
flume-move-discard = Press the non-trumps you want to throw away (press again to keep one), then confirm. The stock holds {$stock}.
flume-move-call = Call your partner by naming a card you don't hold: whoever has it plays with you, and nobody knows who until it is played. Or play alone.
# $trick: the cards on the table, each flume-move-on-table, joined.
flume-move-play = Your turn to play. On the table: {$trick}.
flume-move-on-table = {$player} {$label}
flume-move-lead = Your lead: play any card.

flume-control-pass = Pass
flume-control-bid = Bid {$bid}
# A card chosen to be discarded.
flume-control-chosen = {$label} ✗
flume-control-discard = { $count ->
        [0] Keep all my cards
       *[other] Discard {$count} and draw {$count}
    }
flume-control-call-trump = Call a trump
flume-control-call-high = Call another ace, king, queen, jack or 10
flume-control-call-low = Call another 9 to 2
flume-control-alone = Play alone

## After the game: every hand face up.

flume-revealed-hands = Every hand
flume-revealed-no-cards = no cards
# $cards: what a seat held; $discards: what it threw away.
flume-revealed-threw = {$cards} · threw away {$discards}
flume-revealed-line = **{$player}**: {$held}
flume-revealed-partner = Partner
# $found: whether anyone held the called card ($label); $partner: who did.
flume-revealed-partner-value = {$label}: { $found ->
        [yes] **{$partner}**
       *[no] nobody: no one held that card
    }
flume-revealed-stock = Left in the stock

flume-options = First to {$target} points; { $four_colour ->
        [yes] four-colour deck
       *[no] two-colour deck
    }. 4 players in teams, or 5 with a called partner.

## Moves in words (hints).

flume-move-name = { $move ->
        [bid] Bid {$bid}
        [trump] Name {$suit} trumps
        [play] Play {$label}
        [discard] Discard {$cards}
        [keep] Keep every card
        [call] Call {$label}
        [pass] Pass
       *[alone] Play alone
    }

## Hints (what the hard AI would do, and why).

flume-hint-rule = { $reason ->
        [discard] The hard AI doesn't search discards: it throws away every non-trump but off-suit aces (the lowest first when the stock is short) to draw more trumps.
        [call] It calls the highest trump you don't hold, so that your partner is strong where it counts.
        [only] It's the only move open to you here.
        [no-deal] No deal of the unseen cards could be played out in time, so this is the normal AI's choice.
        [no-search] Here the hard AI bids as the normal AI does, from its estimate of your hand.
       *[other] {""}
    }
# $team: yes four-handed (your team), no five-handed (your side); $game: yes when the search
# looked to the end of the game, no to the end of the hand.
flume-hint-search = Over {$samples} sampled { $samples ->
        [one] deal
       *[other] deals
    } of the cards you can't see, played out to the end of the hand, { $team ->
        [yes] your team
       *[no] your side
    } { $game ->
        [yes] wins the game
       *[no] comes out ahead in this hand
    } {$chance} of the time with it, scoring {$points} points over the other side on average.
# A compared move: its chance and its points (+1.4, -0.5, ±0).
flume-hint-figure = {$chance} · {$points} points
# The unit of the trade-off sentence.
flume-hint-unit = points

## The table picture.

# The header's facts: the bid (if any), the hand and the target, joined by " · ".
flume-picture-bid = Bid {$bid}
flume-picture-hand = Hand { NUMBER($hand, useGrouping: 0) }
flume-picture-target = first to {$target}
# The strip at the end: $names are the winners' names (joined), $count how many.
flume-picture-won = {$names} { $count ->
        [one] wins
       *[other] win
    } with { $points ->
        [one] {$points} point
       *[other] {$points} points
    }!
# What the player named on the strip is to do: $phase is bid, trump, discard, call or play.
flume-picture-to = { $phase ->
        [bid] to bid
        [trump] to name trumps
        [discard] to discard
        [call] to call a partner
       *[play] to play
    }
# The second line of a seat's plate, its parts joined by " · ".
flume-picture-waiting = …
flume-picture-pass = pass
flume-picture-bid-plate = bid {$bid}
flume-picture-swapped = swapped {$count}
flume-picture-left = {$count} left
flume-picture-game = game {$points}
# The dealer's mark on a plate.
flume-picture-dealer = D
flume-picture-last-trick = LAST TRICK
# The line in the middle of the felt when no cards are there.
flume-picture-centre = { $phase ->
        [bid] Bidding: 3 to 6 points, or pass
        [trump] The bidder names trumps
        [discard] Discarding non-trumps and drawing
        [call] The bidder calls a partner
       *[over] Game over
    }
flume-picture-scores = SCORES
flume-picture-hand-heading = HAND { NUMBER($hand, useGrouping: 0) }
flume-picture-bidder = Bid {$bid}: {$bidder}
flume-picture-alone = Playing alone
# $partner: the partner's name, or ? while hidden.
flume-picture-called = Called {$label}: partner {$partner}
flume-picture-last-winner = Last trick: {$player}
flume-picture-point = { flume-point }: {$player}
flume-picture-last-hand = HAND { NUMBER($hand, useGrouping: 0) }: BID {$bid} { $made ->
        [yes] MADE
       *[no] SET
    }
