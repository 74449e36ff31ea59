"""kwire.server"""
