"""Storage: SQLAlchemy models, the engine, Alembic migrations and data access."""
