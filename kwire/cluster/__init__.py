"""kwire.cluster"""
