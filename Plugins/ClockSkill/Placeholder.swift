// Placeholder so the package resolves; replaced by the target's real sources.
