"""The wire vocabulary: fields for cards, seats and verdict codes, the shared schemas, problem documents."""
