; Vika's Windows installer (NSIS 3, 64-bit Unicode stub), built by
; packaging/scripts/windows-package.sh:
;   makensis -DVERSION=1.2.3 -DSTAGE=<dir> -DOUTFILE=<exe> -DBOOTSTRAPPER=<exe> vika.nsi
; STAGE holds what is installed, as it is laid out in the install folder:
; vika.exe, vika.ico, onnxruntime\onnxruntime.dll, models\use-lite\*,
; tessdata\{eng,fra}.traineddata (Vika finds them all beside vika.exe).
;
; Per user, no administrator rights: %LOCALAPPDATA%\Programs\Vika, registry
; keys under HKCU only (uninstall entry, "Open with Vika" for .pdf, .vika
; course files opened by Vika on a double-click), Start
; menu shortcut for the current user. /S installs silently; the uninstaller
; takes /S too and then also removes the user's Vika data.

Unicode true
Target amd64-unicode
SetCompressor /SOLID lzma
RequestExecutionLevel user
ManifestDPIAware true

!ifndef VERSION
  !error "pass -DVERSION=..."
!endif
!ifndef STAGE
  !error "pass -DSTAGE=<staged install folder>"
!endif
!ifndef OUTFILE
  !error "pass -DOUTFILE=<installer path>"
!endif
!ifndef BOOTSTRAPPER
  !error "pass -DBOOTSTRAPPER=<MicrosoftEdgeWebview2Setup.exe>"
!endif

!define PRODUCT "Vika"
!define PUBLISHER "Vika"
!define UNINST_KEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\Vika"
!define PROGID "Vika.PDF"
!define COURSE_PROGID "Vika.Course"
; The WebView2 Runtime's client id (the same for the per-machine and the
; per-user install of the evergreen runtime).
!define WV2_GUID "{F3017226-FE2A-4295-8BDF-00C3A9A7E4C5}"
!define WV2_URL "https://go.microsoft.com/fwlink/p/?LinkId=2124703"
!define VCREDIST_URL "https://aka.ms/vs/17/release/vc_redist.x64.exe"

Name "${PRODUCT}"
OutFile "${OUTFILE}"
InstallDir "$LOCALAPPDATA\Programs\Vika"
InstallDirRegKey HKCU "${UNINST_KEY}" "InstallLocation"
BrandingText "${PRODUCT} ${VERSION}"
VIProductVersion "0.0.0.0"
VIAddVersionKey "ProductName" "${PRODUCT}"
VIAddVersionKey "ProductVersion" "${VERSION}"
VIAddVersionKey "FileDescription" "${PRODUCT} installer"
VIAddVersionKey "FileVersion" "${VERSION}"
VIAddVersionKey "LegalCopyright" "${PUBLISHER}"

!include "MUI2.nsh"
!include "LogicLib.nsh"
!include "FileFunc.nsh"
!include "x64.nsh"
!include "WinVer.nsh"

!define MUI_ICON "${STAGE}\vika.ico"
!define MUI_UNICON "${STAGE}\vika.ico"
!define MUI_ABORTWARNING
!define MUI_FINISHPAGE_RUN "$INSTDIR\vika.exe"
!define MUI_FINISHPAGE_RUN_TEXT "Open Vika"

!insertmacro MUI_PAGE_WELCOME
!insertmacro MUI_PAGE_DIRECTORY
!insertmacro MUI_PAGE_INSTFILES
!insertmacro MUI_PAGE_FINISH
!insertmacro MUI_UNPAGE_CONFIRM
!insertmacro MUI_UNPAGE_INSTFILES
!insertmacro MUI_LANGUAGE "English"
!insertmacro MUI_LANGUAGE "French"

Function .onInit
  SetShellVarContext current
  ${IfNot} ${RunningX64}
  ${OrIfNot} ${AtLeastWin10}
    MessageBox MB_OK|MB_ICONSTOP "Vika needs 64-bit Windows 10 or later." /SD IDOK
    SetErrorLevel 64
    Quit
  ${EndIf}
FunctionEnd

; WebView2Present sets $0 to the installed WebView2 Runtime version, or "".
!macro WebView2Present
  StrCpy $0 ""
  ReadRegStr $0 HKLM "SOFTWARE\WOW6432Node\Microsoft\EdgeUpdate\Clients\${WV2_GUID}" "pv"
  ${If} $0 == ""
  ${OrIf} $0 == "0.0.0.0"
    ReadRegStr $0 HKLM "SOFTWARE\Microsoft\EdgeUpdate\Clients\${WV2_GUID}" "pv"
  ${EndIf}
  ${If} $0 == ""
  ${OrIf} $0 == "0.0.0.0"
    ReadRegStr $0 HKCU "Software\Microsoft\EdgeUpdate\Clients\${WV2_GUID}" "pv"
  ${EndIf}
  ${If} $0 == "0.0.0.0"
    StrCpy $0 ""
  ${EndIf}
!macroend

; The window is drawn by the Microsoft Edge WebView2 Runtime (part of
; Windows 11, installed by Edge on most Windows 10). When it is missing the
; evergreen bootstrapper downloads it (per user: no administrator rights).
; Offline, it cannot: the installation goes on (the headless commands work
; without it) and the user is told what to do.
Function EnsureWebView2
  !insertmacro WebView2Present
  ${If} $0 != ""
    DetailPrint "WebView2 Runtime $0 found"
    Return
  ${EndIf}
  DetailPrint "Installing the Microsoft Edge WebView2 Runtime (download)"
  InitPluginsDir
  File "/oname=$PLUGINSDIR\MicrosoftEdgeWebview2Setup.exe" "${BOOTSTRAPPER}"
  ExecWait '"$PLUGINSDIR\MicrosoftEdgeWebview2Setup.exe" /silent /install' $1
  Delete "$PLUGINSDIR\MicrosoftEdgeWebview2Setup.exe"
  !insertmacro WebView2Present
  ${If} $0 != ""
    DetailPrint "WebView2 Runtime $0 installed"
    Return
  ${EndIf}
  DetailPrint "WebView2 Runtime could not be installed (bootstrapper exit code $1)"
  MessageBox MB_OK|MB_ICONEXCLAMATION "Vika is installed, but its window needs the Microsoft Edge WebView2 Runtime, which could not be downloaded now (is this computer offline?).$\r$\n$\r$\nConnect to the internet and run this installer again, or install the runtime from:$\r$\n${WV2_URL}$\r$\n$\r$\nUntil then the window will not open; the command-line tools (vika ingest, vika search) work." /SD IDOK
FunctionEnd

; ONNX Runtime (semantic search) is built with Visual C++ and needs its
; runtime library, present on most Windows installs but not all.
Function CheckVCRuntime
  ${If} ${FileExists} "$SYSDIR\vcruntime140_1.dll"
  ${AndIf} ${FileExists} "$SYSDIR\msvcp140.dll"
    Return
  ${EndIf}
  DetailPrint "Microsoft Visual C++ runtime not found"
  MessageBox MB_OK|MB_ICONINFORMATION "Vika's semantic search uses the Microsoft Visual C++ Redistributable (x64), which is not installed on this computer.$\r$\n$\r$\nInstall it from:$\r$\n${VCREDIST_URL}$\r$\n$\r$\nUntil then Vika searches by keywords only." /SD IDOK
FunctionEnd

Section "Vika" SecMain
  SectionIn RO
  SetShellVarContext current
  SetOutPath "$INSTDIR"
  ; Replace a previous version's files (stale DLLs or models would be found first).
  RMDir /r "$INSTDIR\onnxruntime"
  RMDir /r "$INSTDIR\models"
  RMDir /r "$INSTDIR\tessdata"
  File /r "${STAGE}\*"
  WriteUninstaller "$INSTDIR\uninstall.exe"

  CreateShortCut "$SMPROGRAMS\Vika.lnk" "$INSTDIR\vika.exe" "" "$INSTDIR\vika.ico" 0

  ; "Open with Vika" for PDFs, for this user: a ProgID offered in the .pdf
  ; Open-with list, and an explicit verb on the PDF context menu. The user's
  ; default PDF program is left alone (Windows lets only the user change it).
  WriteRegStr HKCU "Software\Classes\${PROGID}" "" "PDF document (Vika)"
  WriteRegStr HKCU "Software\Classes\${PROGID}" "FriendlyTypeName" "PDF document"
  WriteRegStr HKCU "Software\Classes\${PROGID}\DefaultIcon" "" "$INSTDIR\vika.ico"
  WriteRegStr HKCU "Software\Classes\${PROGID}\shell\open" "FriendlyAppName" "Vika"
  WriteRegStr HKCU "Software\Classes\${PROGID}\shell\open\command" "" '"$INSTDIR\vika.exe" "%1"'
  WriteRegStr HKCU "Software\Classes\.pdf\OpenWithProgids" "${PROGID}" ""
  WriteRegStr HKCU "Software\Classes\Applications\vika.exe" "FriendlyAppName" "Vika"
  WriteRegStr HKCU "Software\Classes\Applications\vika.exe\SupportedTypes" ".pdf" ""
  WriteRegStr HKCU "Software\Classes\Applications\vika.exe\shell\open\command" "" '"$INSTDIR\vika.exe" "%1"'
  WriteRegStr HKCU "Software\Classes\SystemFileAssociations\.pdf\shell\Vika" "MUIVerb" "Open with Vika"
  WriteRegStr HKCU "Software\Classes\SystemFileAssociations\.pdf\shell\Vika" "Icon" "$INSTDIR\vika.ico"
  WriteRegStr HKCU "Software\Classes\SystemFileAssociations\.pdf\shell\Vika\command" "" '"$INSTDIR\vika.exe" "%1"'
  ; Course files (.vika, Vika's own type): a double-click opens them in Vika
  ; ("vika.exe" FILE.vika opens the window with the course loaded).
  WriteRegStr HKCU "Software\Classes\${COURSE_PROGID}" "" "Vika course"
  WriteRegStr HKCU "Software\Classes\${COURSE_PROGID}" "FriendlyTypeName" "Vika course"
  WriteRegStr HKCU "Software\Classes\${COURSE_PROGID}\DefaultIcon" "" "$INSTDIR\vika.ico"
  WriteRegStr HKCU "Software\Classes\${COURSE_PROGID}\shell\open" "FriendlyAppName" "Vika"
  WriteRegStr HKCU "Software\Classes\${COURSE_PROGID}\shell\open\command" "" '"$INSTDIR\vika.exe" "%1"'
  WriteRegStr HKCU "Software\Classes\.vika" "" "${COURSE_PROGID}"
  WriteRegStr HKCU "Software\Classes\.vika" "Content Type" "application/x-vika-course"
  WriteRegStr HKCU "Software\Classes\.vika\OpenWithProgids" "${COURSE_PROGID}" ""
  WriteRegStr HKCU "Software\Classes\Applications\vika.exe\SupportedTypes" ".vika" ""
  System::Call 'shell32::SHChangeNotify(i 0x08000000, i 0, p 0, p 0)' ; SHCNE_ASSOCCHANGED

  WriteRegStr HKCU "${UNINST_KEY}" "DisplayName" "Vika"
  WriteRegStr HKCU "${UNINST_KEY}" "DisplayVersion" "${VERSION}"
  WriteRegStr HKCU "${UNINST_KEY}" "Publisher" "${PUBLISHER}"
  WriteRegStr HKCU "${UNINST_KEY}" "DisplayIcon" "$INSTDIR\vika.ico"
  WriteRegStr HKCU "${UNINST_KEY}" "InstallLocation" "$INSTDIR"
  WriteRegStr HKCU "${UNINST_KEY}" "UninstallString" '"$INSTDIR\uninstall.exe"'
  WriteRegStr HKCU "${UNINST_KEY}" "QuietUninstallString" '"$INSTDIR\uninstall.exe" /S'
  WriteRegDWORD HKCU "${UNINST_KEY}" "NoModify" 1
  WriteRegDWORD HKCU "${UNINST_KEY}" "NoRepair" 1
  ${GetSize} "$INSTDIR" "/S=0K" $0 $1 $2
  IntFmt $0 "0x%08X" $0
  WriteRegDWORD HKCU "${UNINST_KEY}" "EstimatedSize" "$0"

  Call CheckVCRuntime
  Call EnsureWebView2
SectionEnd

Function un.onInit
  SetShellVarContext current
FunctionEnd

Section "Uninstall"
  SetShellVarContext current
  Delete "$SMPROGRAMS\Vika.lnk"
  DeleteRegKey HKCU "Software\Classes\${PROGID}"
  DeleteRegValue HKCU "Software\Classes\.pdf\OpenWithProgids" "${PROGID}"
  DeleteRegKey /ifempty HKCU "Software\Classes\.pdf\OpenWithProgids"
  DeleteRegKey /ifempty HKCU "Software\Classes\.pdf"
  DeleteRegKey HKCU "Software\Classes\Applications\vika.exe"
  DeleteRegKey HKCU "Software\Classes\SystemFileAssociations\.pdf\shell\Vika"
  DeleteRegKey /ifempty HKCU "Software\Classes\SystemFileAssociations\.pdf\shell"
  DeleteRegKey /ifempty HKCU "Software\Classes\SystemFileAssociations\.pdf"
  DeleteRegKey HKCU "Software\Classes\${COURSE_PROGID}"
  ; .vika: removed whole while it is still ours; another program's claim stays.
  ReadRegStr $0 HKCU "Software\Classes\.vika" ""
  ${If} $0 == "${COURSE_PROGID}"
    DeleteRegKey HKCU "Software\Classes\.vika"
  ${Else}
    DeleteRegValue HKCU "Software\Classes\.vika\OpenWithProgids" "${COURSE_PROGID}"
    DeleteRegKey /ifempty HKCU "Software\Classes\.vika\OpenWithProgids"
  ${EndIf}
  System::Call 'shell32::SHChangeNotify(i 0x08000000, i 0, p 0, p 0)'
  DeleteRegKey HKCU "${UNINST_KEY}"

  ; The program folder, then (asked; yes when silent) the user's data:
  ; downloaded models and caches, and the settings.
  RMDir /r "$INSTDIR"
  RMDir "$LOCALAPPDATA\Programs" ; only when empty: the installer may have created it
  MessageBox MB_YESNO|MB_ICONQUESTION "Also delete your Vika data (downloaded models and settings)? Your API keys stay in the Windows Credential Manager until you remove them in Vika's settings." /SD IDYES IDNO keep
  RMDir /r "$LOCALAPPDATA\Vika"
  RMDir /r "$APPDATA\Vika"
  keep:
SectionEnd
