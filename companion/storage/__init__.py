"""Storage: the SQLite database with its migrations, and backups."""
