"""What every other layer stands on: exit codes, the Problem, the process seam, ids, the digest and the version."""
