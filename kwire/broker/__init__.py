"""Broker state (kwire.broker.broker.Broker) and its pure helpers (fetch sessions)."""
