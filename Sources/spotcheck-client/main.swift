// Placeholder until the external-client reference lands; see issue 6.
print("spotcheck-client: not implemented yet")
