"""The balance report: simulate a grid of games and write balance.html and balance.json."""
