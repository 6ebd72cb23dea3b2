"""The server of the palaestra OpenEnv package."""
