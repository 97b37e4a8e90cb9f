"""The branch's fixed names: no flag, variable or file can change them, so one repository has
one Store and finding it is knowing the name."""

BRANCH = "hyper-store"
REF = "refs/heads/" + BRANCH
REMOTE = "origin"
TRACKING_REF = f"refs/remotes/{REMOTE}/{BRANCH}"
