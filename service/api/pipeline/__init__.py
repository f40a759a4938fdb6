"""The request pipeline: strict body reading and JSON parsing, load plans, the operation decorator."""
