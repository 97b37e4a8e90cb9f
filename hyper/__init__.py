"""hyper: AI-authored, human-reviewable infrastructure automation."""
