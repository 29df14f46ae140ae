## Words every presenter uses.

# A place in a ranking: 1st, 2nd, 3rd, 4th.
ordinal = { ORDINAL($n) ->
    [one] {$n}st
    [two] {$n}nd
    [few] {$n}rd
   *[other] {$n}th
 }

# A table opened with a number of players its game can't be played with.
error-player-count = { $game } needs { $low } to { $high } players, not { $count }.
