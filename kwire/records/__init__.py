"""kwire.records"""
