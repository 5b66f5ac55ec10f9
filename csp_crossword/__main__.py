try:
    from .cli import main
except KeyboardInterrupt:  # Ctrl-C while the entry point itself loads: as clean as any interrupt
    import sys

    from .core.errors import ExitCode

    print("csp-crossword: interrupted", file=sys.stderr)
    raise SystemExit(ExitCode.INTERRUPTED) from None

raise SystemExit(main())
