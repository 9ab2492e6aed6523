from django.urls import path

from tournament.play import phone as table

urlpatterns = [
    path("sw.js", table.table_worker, name="worker"),
    path("<str:token>/", table.table_page, name="page"),
    path("<str:token>/manifest.webmanifest", table.table_manifest, name="manifest"),
    path("<str:token>/round/<int:round_number>/preview/", table.table_preview, name="preview"),
    path("<str:token>/round/<int:round_number>/hands/", table.table_hand, name="hand"),
    path("<str:token>/round/<int:round_number>/first-dealer/", table.table_first_dealer, name="first_dealer"),
    path("<str:token>/round/<int:round_number>/hands/<int:number>/dispute/", table.table_dispute, name="dispute"),
    path("<str:token>/round/<int:round_number>/hands/<int:number>/mistake/", table.table_mistake, name="mistake"),
    path("<str:token>/report/", table.table_report, name="report"),
]
