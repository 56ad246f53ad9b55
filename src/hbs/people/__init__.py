"""Commands for a person at the keyboard: solve a code they hold, play one, a bot's decision tree."""
