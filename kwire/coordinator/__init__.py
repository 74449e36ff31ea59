"""kwire.coordinator"""
