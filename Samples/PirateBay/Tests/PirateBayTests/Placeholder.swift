// Filled in.
