// Filled in by the core issue.
