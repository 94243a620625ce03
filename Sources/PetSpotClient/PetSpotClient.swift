// Placeholder until the client lands; see issue 5.
