"""``sweeplab learn``: seed 003's learned players (commands) and the neural player (neural), with the options they
share (options); importing commands and neural registers them on the group.
May import everything below the cli."""
