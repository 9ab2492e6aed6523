# A date: "Sun Nov 22, 2026" (the weekday names a club night). A moment of an event, on any page or
# sheet: "Sun Nov 22, 17:18" (a league's season spans weeks, so the day carries its date). A time
# beside the day it belongs to: "17:18". Forms and exports keep ISO dates (Django's input formats).
DATE_FORMAT = "D M j, Y"
SHORT_DATETIME_FORMAT = "D M j, H:i"
DATETIME_FORMAT = "D M j, Y, H:i"
TIME_FORMAT = "H:i"
