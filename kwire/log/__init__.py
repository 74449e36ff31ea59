"""kwire.log"""
