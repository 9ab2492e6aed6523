"""The app's own date and time formats (settings.FORMAT_MODULE_PATH), one place for every page
and printed sheet; formats not named here are Django's for the language."""
