"""Stages 1-3: deck files in (load), every problem found (validate), a frozen deck in one language out (resolve)."""
