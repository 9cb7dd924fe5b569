"""The translator's workflow: a game's texts and cardgen's own words out to a gettext PO file, a PO file's
translations back into the YAML they came from, and the share of each language done."""
