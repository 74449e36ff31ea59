"""kwire.protocol"""
