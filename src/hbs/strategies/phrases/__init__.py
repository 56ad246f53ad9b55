"""The phrase engine: passphrases of 1 to 8 words of any list, counted and guessed without listing them."""
