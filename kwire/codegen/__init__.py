"""kwire.codegen"""
