"""Fill strategies above one backend: the quality-first stages and the improvement of a fill's
weakest entries."""
