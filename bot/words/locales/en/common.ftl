## Words every presenter uses.

# A place in a ranking: 1st, 2nd, 3rd, 4th.
ordinal = { ORDINAL($n) ->
    [one] {$n}st
    [two] {$n}nd
    [few] {$n}rd
   *[other] {$n}th
 }
