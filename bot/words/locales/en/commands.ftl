## Slash commands: what Discord shows beside each command and option. Each message words a
## command's description; its attributes word the command's options.

command-game = Play { $game }
command-hand = Show your own view of the game (only you see it)
command-status = Show the table here, only to you
command-leave = Give up your seat (an AI takes it over)
command-rejoin = Take your seat back from the AI playing it for you
command-cancel = Cancel the game here (host or Manage Server)
command-kick = Remove a player; an AI takes their seat (host or Manage Server)
    .player = The player to remove
command-learn = A guided first game of { $game } against easy AIs (practice, not rated)

# Options every /<game> start has.
command-start =
    .thread = Host the game in a new thread
    .hints = Players may ask for a hint on their move: the hard AI's move, and why (default off)
    .turn_minutes = Minutes a player has for a move before an AI covers (default 5)

command-start-qdice = Open a Quantum dice table in this channel
    .target = Points needed to win (default 10,000)
command-start-flume = Open a Flume table in this channel
    .target = Points needed to win (default 21)
    .four_colour = Four-colour deck (spades black, hearts red, diamonds blue, clubs green)
command-start-flux = Open a Flux table in this channel
    .variants = Variant numbers, comma-separated, e.g. 1,4,17 (see /rules game:Flux)
    .decks = Decks in the shoe: 3 to 6, or 1 to 2 with Variant 18
    .deals = Variant 15: how many times each player deals before the game ends (default 2)
    .limit = Variant 15: the game ends when someone reaches this score
command-start-fingers = Open a Quantum Fingers table in this channel
    .fingers = Fingers of each flavour, and in each starting hand (default 4)
command-start-qpoker = Open a QuantumPoker table in this channel
    .chips = Chips each player starts with (default 20)
    .rounds = Rounds in the match (default 5)
    .community = Community cards each round: five, or one per player (default five)
    .calling = Players may call measurement early (default on)

command-help = What Quantum Table does and how to start a game
command-settings = Your settings on this server
    .turn_pings = Get a message that mentions you when your turn starts
command-about = Version, uptime and how busy the bot is
command-rules = How a game is played
    .game = Which game
command-history = Recent finished games on this server, to replay
    .user = Only this person's games
    .game = Only this game
command-leaderboard = This server's standings in a game
    .game = Which game
    .page = Page number
command-stats = A player's record and rating on this server
    .player = Whose record (default: yours)
command-sync = Bot owner: sync slash commands now
