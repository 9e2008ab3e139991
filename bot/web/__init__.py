"""The web pages of the servers that publish theirs: a read-only site over the bot's own
database (``python -m bot web``, :mod:`bot.web.app`), and what the bot keeps for it (which
servers publish a page under which slug, and which of their channels are public:
:mod:`bot.web.publish`)."""
