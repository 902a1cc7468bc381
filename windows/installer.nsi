; The per-user Windows installer (NSIS 3, 64-bit stub): no administrator, files under
; %LOCALAPPDATA%\Programs\skelview, a Start-menu entry, an "Apps & features" entry with the
; version, and the file associations of `skelview.exe --install-desktop` (one implementation
; for the installer and the portable zip). The uninstaller removes all of it.
; windows/build.sh passes VERSION, EXE, ICON, ROOT and OUT.
Unicode true
Target amd64-unicode
!ifndef VERSION | EXE | ICON | ROOT | OUT
  !error "windows/build.sh defines VERSION, EXE, ICON, ROOT and OUT"
!endif

!define UNINSTALL_KEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\skelview"

Name "skelview ${VERSION}"
OutFile "${OUT}"
RequestExecutionLevel user
InstallDir "$LOCALAPPDATA\Programs\skelview"
SetCompressor /SOLID lzma
Icon "${ICON}"
UninstallIcon "${ICON}"
ShowInstDetails show
ShowUninstDetails show

Page directory
Page instfiles
UninstPage uninstConfirm
UninstPage instfiles

Section "skelview"
  SetShellVarContext current
  SetOutPath "$INSTDIR"
  File "/oname=skelview.exe" "${EXE}"
  File "/oname=README.md" "${ROOT}/README.md"
  File "/oname=LICENSE-MIT.txt" "${ROOT}/LICENSE-MIT"
  File "/oname=LICENSE-APACHE.txt" "${ROOT}/LICENSE-APACHE"
  WriteUninstaller "$INSTDIR\uninstall.exe"
  CreateShortcut "$SMPROGRAMS\skelview.lnk" "$INSTDIR\skelview.exe" "" "$INSTDIR\skelview.exe" 0
  WriteRegStr HKCU "${UNINSTALL_KEY}" "DisplayName" "skelview"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "DisplayVersion" "${VERSION}"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "Publisher" "the skelview authors"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "DisplayIcon" "$INSTDIR\skelview.exe,0"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "InstallLocation" "$INSTDIR"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "UninstallString" '"$INSTDIR\uninstall.exe"'
  WriteRegStr HKCU "${UNINSTALL_KEY}" "QuietUninstallString" '"$INSTDIR\uninstall.exe" /S'
  WriteRegDWORD HKCU "${UNINSTALL_KEY}" "NoModify" 1
  WriteRegDWORD HKCU "${UNINSTALL_KEY}" "NoRepair" 1
  ; The file associations: what --install-desktop writes for the zip's users too.
  ExecWait '"$INSTDIR\skelview.exe" --install-desktop' $0
  DetailPrint "file associations: exit code $0"
SectionEnd

Section "Uninstall"
  SetShellVarContext current
  ExecWait '"$INSTDIR\skelview.exe" --uninstall-desktop' $0
  DetailPrint "file associations removed: exit code $0"
  Delete "$SMPROGRAMS\skelview.lnk"
  Delete "$INSTDIR\skelview.exe"
  Delete "$INSTDIR\README.md"
  Delete "$INSTDIR\LICENSE-MIT.txt"
  Delete "$INSTDIR\LICENSE-APACHE.txt"
  Delete "$INSTDIR\uninstall.exe"
  RMDir "$INSTDIR"
  DeleteRegKey HKCU "${UNINSTALL_KEY}"
SectionEnd
