"""Words, not rules: morphology (one analyser for the app) and the round read from dictation."""
