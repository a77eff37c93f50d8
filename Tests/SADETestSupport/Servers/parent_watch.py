"""Ends a test server with the test run that started it, so a server a test forgot to
stop does not outlive the run."""
import os, threading, time


def wait_for_parent_to_end():
    """Returns once the process that started this one has ended."""
    parent = os.getppid()
    while os.getppid() == parent:
        time.sleep(0.5)


def exit_when_parent_ends():
    """Ends this process, from a background thread, once its parent has ended."""
    def watch():
        wait_for_parent_to_end()
        os._exit(0)
    threading.Thread(target=watch, daemon=True).start()
