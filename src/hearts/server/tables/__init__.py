"""The one game loop: a table of four seats, each a person or a bot.

A solo match is a table with one person (seat 0) and three bots; a table of
friends will be the same loop with more people.
"""
