from django.urls import path

from tournament.views import table

urlpatterns = [
    path("<str:token>/", table.table_page, name="page"),
    path("<str:token>/round/<int:round_number>/preview/", table.table_preview, name="preview"),
    path("<str:token>/round/<int:round_number>/hands/", table.table_hand, name="hand"),
    path("<str:token>/round/<int:round_number>/hands/<int:number>/dispute/", table.table_dispute, name="dispute"),
]
