"""Simulated navigation logs (there are no public ones): seeded random walks over document trees."""

from .routes import RouteSimulator, write_routes

__all__ = ["RouteSimulator", "write_routes"]
