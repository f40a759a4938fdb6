"""The operations of the API, one module per family, each with its blueprint: thin views over the rules core."""
