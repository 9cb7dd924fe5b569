"""Text: markup, fonts and their checks, writing systems, pinyin, and fitting text into boxes."""
