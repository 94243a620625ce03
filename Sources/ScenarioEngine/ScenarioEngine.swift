// Placeholder until the scenario engine lands; see issue 6.
