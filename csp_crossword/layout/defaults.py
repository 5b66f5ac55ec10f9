"""The default time budgets of the layout searches, read by the command line's help without
importing the searches themselves."""

#: Seconds a freeform layout searches when no time limit is given.
FREEFORM_SECONDS = 2.0
