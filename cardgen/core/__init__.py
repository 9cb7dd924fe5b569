"""The shared core: problems, units, contained reads, atomic writes, phrases, the project and its settings."""
