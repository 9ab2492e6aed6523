from django.urls import include, path

from tournament.views import director

director_patterns = [
    path("", director.home, name="home"),
    path("t/<int:tournament_id>/", director.dashboard, name="dashboard"),
]

urlpatterns = [
    path("", include((director_patterns, "director"))),
]
