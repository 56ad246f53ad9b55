"""What a bot is: the contract (Bot, Guess, Turn), finding and listing bots without running them, bot.toml, the submission check, a bot's text made safe to show."""
