"""The model: environments, their registry and configuration."""
