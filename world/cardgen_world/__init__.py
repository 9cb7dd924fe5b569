"""cardgen's fonts for more writing systems: nothing in, the folder that holds them out (FONTS).

cardgen looks in this folder after its own fonts/ when this distribution is installed; which
family draws which language is in cardgen's templates/fonts.yaml.
"""

from pathlib import Path

FONTS = Path(__file__).resolve().parent / "fonts"
