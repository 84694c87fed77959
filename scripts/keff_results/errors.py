"""The refusals of the reader and the commands: each is one line for the user, and the command line ends
with status 2 on any of them (a bug still shows its traceback)."""


class KeffResultsError(Exception):
    """Bad input to the reader or a command: a file, a name, a bin or an output path."""


class StatePointError(KeffResultsError, ValueError):
    """A file that is not a keff statepoint this reader knows, or is damaged."""


class SelectionError(KeffResultsError, ValueError):
    """A tally, score, filter bin or layer that is not there; the message says what is allowed."""


class OutputError(KeffResultsError, OSError):
    """A picture that cannot be written where asked."""
